// What reflection and serialization show of classes that the flow modes give an added
// field (dragnet$tag, src/flow/tag_field.h): with the field hidden, the output is the same
// with and without the agent (tests/agent/tag_field_test.cpp).
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class TagFieldOracle {
  static class Plain {
    int a;
    String b;
    public long c;
  }

  static class Sub extends Plain {
    public double d;
    Object e;
  }

  static class Node implements Serializable {  // no serialVersionUID: the default one
    int value;
    String name;
    Node next;
    transient int cache;
    public Node() {}
    Node(int value, String name, Node next) {
      this.value = value;
      this.name = name;
      this.next = next;
    }
  }

  static class Derived extends Node {
    long extra = 7;
  }

  record Point(int x, int y) implements Serializable {}

  enum Color { RED, GREEN }

  static class Failure extends RuntimeException {  // a root under a denied Throwable
    int code = 3;
  }

  static String fields(Field[] fs) {
    List<String> names = new ArrayList<>();
    for (Field f : fs) names.add(Modifier.toString(f.getModifiers()) + " " + f.getName());
    names.sort(null);  // getDeclaredFields' order is unspecified
    return fs.length + " " + names;
  }

  static void show(Class<?> c) {
    System.out.println(c.getName());
    System.out.println("  declared " + fields(c.getDeclaredFields()));
    System.out.println("  public   " + fields(c.getFields()));
    try {
      c.getDeclaredField("dragnet$tag");
      System.out.println("  getDeclaredField(dragnet$tag) found");
    } catch (NoSuchFieldException e) {
      System.out.println("  getDeclaredField(dragnet$tag) " + e);
    }
    try {
      c.getField("dragnet$tag");
      System.out.println("  getField(dragnet$tag) found");
    } catch (NoSuchFieldException e) {
      System.out.println("  getField(dragnet$tag) " + e);
    }
  }

  static void serialForm(Class<?> c) {
    ObjectStreamClass d = ObjectStreamClass.lookup(c);
    StringBuilder s = new StringBuilder();
    for (ObjectStreamField f : d.getFields()) s.append(' ').append(f.getName());
    System.out.println(c.getName() + " serialVersionUID " + d.getSerialVersionUID()
        + " fields" + s);
  }

  static byte[] roundTrip(Object o) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    Object back;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      back = in.readObject();
    }
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(again)) {
      out.writeObject(back);
    }
    System.out.println("  same stream after the round trip: "
        + Arrays.equals(bytes.toByteArray(), again.toByteArray()));
    return bytes.toByteArray();
  }

  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) s.append(String.format("%02x", x & 0xff));
    return s.toString();
  }

  public static void main(String[] args) throws Exception {
    for (Class<?> c : new Class<?>[] {Plain.class, Sub.class, Node.class, Derived.class,
             Point.class, Color.class, Failure.class, ArrayList.class, Thread.class,
             Object.class, String.class, Integer.class}) {
      show(c);
    }
    for (Class<?> c : new Class<?>[] {Node.class, Derived.class, Point.class, Color.class,
             Failure.class, ArrayList.class, String.class, Integer.class}) {
      serialForm(c);
    }
    Node list = new Node(1, "one", new Node(2, "two", null));
    Derived d = new Derived();
    d.value = 5;
    List<Object> all = new ArrayList<>(List.of(list, d, new Point(3, 4), Color.GREEN, 42, "s"));
    System.out.println("stream " + hex(roundTrip(all)));
    Failure f = new Failure();
    System.out.println("failure " + f.code + " " + f.getClass().getSuperclass().getName());
  }
}
