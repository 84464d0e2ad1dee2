package dragnet.testdata;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

// An annotation type with an element of every kind.
@Retention(RetentionPolicy.RUNTIME)
public @interface Everything {
  byte b() default 1;

  char c() default 'x';

  short s();

  int i();

  long j();

  float f();

  double d();

  boolean z();

  String str();

  Color e();

  Class<?> cls();

  Nested nested();

  int[] ints();

  Nested[] nesteds();

  @Retention(RetentionPolicy.RUNTIME)
  @interface Nested {
    String value() default "n";
  }
}
