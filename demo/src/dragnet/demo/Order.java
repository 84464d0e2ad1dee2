package dragnet.demo;

import java.util.List;
import java.util.Objects;

/** An immutable customer order shipped from one region. */
public record Order(int id, String customer, String region, List<Order.Line> lines) {

  /** One order line: a quantity of a stock-keeping unit. */
  public record Line(String sku, int quantity) {
    public Line {
      Objects.requireNonNull(sku, "sku");
      if (quantity <= 0) {
        throw new IllegalArgumentException("quantity must be positive: " + quantity);
      }
    }
  }

  public Order {
    Objects.requireNonNull(customer, "customer");
    Objects.requireNonNull(region, "region");
    lines = List.copyOf(lines);
  }

  public int totalUnits() {
    int units = 0;
    for (Line line : lines) {
      units += line.quantity();
    }
    return units;
  }
}
