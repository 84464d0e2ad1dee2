// Constructors: the object's tag must be visible to every store into it, before and after the
// super() call: an inner class's this$0 (stored before super()), an anonymous class's captured
// local (val$...), also before super(), in classes whose superclass constructor sets the tag
// later; a superclass constructor storing fields of a subclass object; a constructor calling an
// overridable method that stores and allocates. Expected: expected/FlowCtors.{ci,cs}.edges (the
// @markers name lines).
public class FlowCtors {
  static final int K = 30000;

  static final class Box {
    int v;
    Box(int v) { this.v = v; }
  }

  static Object src = new Box(-1); // @src

  // A root class (superclass Object): this$0 is stored before super() and before the tag.
  final class Inner {
    Object held;
    Inner(Object v) { held = v; } // @inner
  }

  static class Base {
    Object b;
    Base(Object v) { b = v; } // @base
  }

  static final class Derived extends Base {
    Object d;
    Derived(Object v, Object w) { super(v); d = w; } // @derived
  }

  // Not a root class: this$0 is stored before Base's constructor runs.
  final class InnerDerived extends Base {
    InnerDerived(Object v) { super(v); } // @innerderived
  }

  static class Early {
    Early() { init(); } // @earlyctor
    void init() {}
  }

  static final class Late extends Early {
    Object early;
    Object made;
    Object body;
    Late(Object v) { super(); body = v; } // @latector
    @Override void init() {
      early = src; // @init1
      made = new Box(5); // @init2
    }
  }

  Inner makeInner(Object v) {
    return new Inner(v); // @mkinner
  }

  InnerDerived makeInnerDerived(Object v) {
    return new InnerDerived(v); // @mkid
  }

  static Base makeAnon(Object v, Object captured) {
    return new Base(v) { // @mkanon
      Object cap = captured; // @anoncap
    };
  }

  public static void main(String[] args) {
    FlowCtors outer = new FlowCtors(); // @O
    Inner in = null;
    Derived der = null;
    Base base = null;
    InnerDerived id = null;
    Late late = null;
    Base anon = null;
    for (int i = 0; i < K; i++) {
      Box a = new Box(i); // @Va
      in = outer.makeInner(a);
      Box b1 = new Box(i); // @Vb1
      Box b2 = new Box(i); // @Vb2
      der = new Derived(b1, b2); // @Der
      Box c = new Box(i); // @Vc
      base = new Base(c); // @Bas
      Box e = new Box(i); // @Ve
      id = outer.makeInnerDerived(e);
      Box f = new Box(i); // @Vf
      late = new Late(f); // @Lat
      Box g = new Box(i); // @Vg
      Box h = new Box(i); // @Vh
      anon = makeAnon(g, h);
    }
    // Each heap value read here is consumed once (iadd); only computed values are printed.
    int sum = ((Box) in.held).v + ((Box) der.b).v + ((Box) der.d).v + ((Box) base.b).v; // @chk1
    sum += ((Box) id.b).v + ((Box) late.body).v + ((Box) late.early).v + ((Box) late.made).v; // @chk2
    sum += ((Box) anon.b).v; // @chk3
    System.out.println("sum " + sum);
  }
}
