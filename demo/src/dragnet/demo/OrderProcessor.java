package dragnet.demo;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** Prices orders per customer tier, reserves stock, and records the outcome. */
public final class OrderProcessor {
  private final Warehouse warehouse;
  private final Map<OrderStatus, List<Integer>> idsByStatus = new EnumMap<>(OrderStatus.class);
  private final List<String> log = new ArrayList<>();
  private long revenueCents;

  public OrderProcessor(Warehouse warehouse) {
    this.warehouse = warehouse;
    for (OrderStatus status : OrderStatus.values()) {
      idsByStatus.put(status, new ArrayList<>());
    }
  }

  static PricingRule ruleFor(String tier) {
    PricingRule rule;
    switch (tier) {
      case "gold":
        rule = PricingRule.percentOff(15).andThen(PricingRule.bulkDiscount(6, 500));
        break;
      case "silver":
        rule = PricingRule.percentOff(10);
        break;
      case "staff":
      case "partner":
        rule = PricingRule.percentOff(30);
        break;
      case "bronze":
        rule = PricingRule.bulkDiscount(8, 250);
        break;
      default:
        rule = PricingRule.identity();
    }
    return rule;
  }

  public OrderStatus process(Order order, String tier) {
    OrderStatus status = OrderStatus.PENDING;
    try {
      warehouse.reserve(order);
      long gross = 0;
      for (Order.Line line : order.lines()) {
        gross += warehouse.price(line.sku()) * line.quantity();
      }
      long net = ruleFor(tier).apply(order, gross);
      revenueCents += net;
      status = OrderStatus.FULFILLED;
      log.add("#" + order.id() + " " + order.customer() + "/" + tier + ": " + formatCents(gross)
          + " -> " + formatCents(net));
    } catch (Warehouse.OutOfStockException e) {
      status = order.lines().size() > 1 ? OrderStatus.BACKORDERED : OrderStatus.REJECTED;
      log.add("#" + order.id() + " " + order.customer() + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      status = OrderStatus.REJECTED;
      log.add("#" + order.id() + " " + order.customer() + ": rejected, " + e.getMessage());
    } finally {
      idsByStatus.get(status).add(order.id());
    }
    return status;
  }

  public List<String> log() {
    return Collections.unmodifiableList(log);
  }

  public Map<OrderStatus, List<Integer>> idsByStatus() {
    return idsByStatus;
  }

  public long revenueCents() {
    return revenueCents;
  }

  /** Groups items by key; keys come out in their natural order. */
  public static <T, K extends Comparable<? super K>> Map<K, List<T>> groupBy(
      Collection<? extends T> items, Function<? super T, ? extends K> key) {
    Map<K, List<T>> groups = new TreeMap<>();
    for (T item : items) {
      groups.computeIfAbsent(key.apply(item), k -> new ArrayList<>()).add(item);
    }
    return groups;
  }

  public static String formatCents(long cents) {
    long abs = Math.abs(cents);
    long fraction = abs % 100;
    return (cents < 0 ? "-$" : "$") + abs / 100 + "." + (fraction < 10 ? "0" : "") + fraction;
  }
}
