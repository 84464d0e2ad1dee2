package dragnet.demo;

/** Outcome of processing an order. */
public enum OrderStatus {
  PENDING("pending"),
  FULFILLED("fulfilled") {
    @Override
    public boolean isFinal() {
      return true;
    }
  },
  BACKORDERED("back-ordered"),
  REJECTED("rejected") {
    @Override
    public boolean isFinal() {
      return true;
    }
  };

  private final String label;

  OrderStatus(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  public boolean isFinal() {
    return false;
  }
}
