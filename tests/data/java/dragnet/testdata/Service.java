package dragnet.testdata;

public interface Service {
  String name();
}
