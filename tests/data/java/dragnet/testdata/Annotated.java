package dragnet.testdata;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

@Everything(
    s = -3,
    i = 100000,
    j = 1L << 40,
    f = 1.5f,
    d = 2.25,
    z = true,
    str = "hello",
    e = Color.GREEN,
    cls = String.class,
    nested = @Everything.Nested("inner"),
    ints = {1, 2, 3},
    nesteds = {@Everything.Nested, @Everything.Nested("second")})
@Annotated.Invisible
public class Annotated {
  @Retention(RetentionPolicy.CLASS)
  @interface Invisible {}

  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  @interface Visible {}

  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.TYPE_USE)
  public @interface TA {
    int value() default 0;
  }

  public void params(@Visible int first, @Invisible String second) {}

  public String cast(Object o) {
    return (@TA(1) String) o;
  }

  public int local() {
    @TA(2) String s = "x";
    return s.length();
  }

  public int catching(Object o) {
    try {
      return o.hashCode();
    } catch (@TA(3) RuntimeException e) {
      return -1;
    }
  }
}
