package dragnet.demo;

/** Turns a gross price (in cents) into a net price for an order. */
@FunctionalInterface
public interface PricingRule {
  long apply(Order order, long cents);

  default PricingRule andThen(PricingRule next) {
    return (order, cents) -> next.apply(order, apply(order, cents));
  }

  static PricingRule identity() {
    return (order, cents) -> cents;
  }

  static PricingRule percentOff(int percent) {
    if (percent < 0 || percent > 100) {
      throw new IllegalArgumentException("bad percentage: " + percent);
    }
    return (order, cents) -> cents - cents * percent / 100;
  }

  static PricingRule bulkDiscount(int minUnits, long offCents) {
    return (order, cents) -> order.totalUnits() >= minUnits ? Math.max(0, cents - offCents) : cents;
  }
}
