package dragnet.demo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Simulates a day of order processing and prints a deterministic report. */
public final class Main {
  private static final String[] REGIONS = {"north", "south", "west"};
  private static final String[] SKUS = {"anvil", "bolt", "crate", "drill", "easel"};
  private static final long[] PRICES = {4999, 25, 1250, 8999, 3400};
  private static final String[] CUSTOMERS = {"acme", "globex", "hooli", "initech", "umbrella"};
  private static final String[] TIERS = {"gold", "silver", "bronze", "staff", "guest"};

  private Main() {}

  public static void main(String[] args) {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    Random random = new Random(42); // fixed seed: the sequence is specified, hence deterministic

    Warehouse warehouse = new Warehouse(REGIONS, SKUS, PRICES);
    for (int r = 0; r < REGIONS.length; r++) {
      for (int s = 0; s < SKUS.length; s++) {
        warehouse.restock(REGIONS[r], SKUS[s], 7 + (r * 7 + s * 3) % 9);
      }
    }
    int initialUnits = warehouse.totalUnits();

    OrderProcessor processor = new OrderProcessor(warehouse);
    List<Order> orders = new ArrayList<>();
    for (int id = 1; id <= count; id++) {
      List<Order.Line> lines = new ArrayList<>();
      int lineCount = 1 + random.nextInt(3);
      for (int i = 0; i < lineCount; i++) {
        lines.add(new Order.Line(SKUS[random.nextInt(SKUS.length)], 1 + random.nextInt(4)));
      }
      // Every 13th order ships from a region that does not exist.
      String region = id % 13 == 0 ? "east" : REGIONS[random.nextInt(REGIONS.length)];
      Order order = new Order(id, CUSTOMERS[random.nextInt(CUSTOMERS.length)], region, lines);
      orders.add(order);
      processor.process(order, TIERS[random.nextInt(TIERS.length)]);
    }

    System.out.println("== order log ==");
    processor.log().forEach(System.out::println);

    System.out.println("== outcome ==");
    for (Map.Entry<OrderStatus, List<Integer>> e : processor.idsByStatus().entrySet()) {
      String marker = e.getKey().isFinal() ? "*" : " ";
      System.out.println(marker + " " + e.getKey().label() + ": " + e.getValue().size() + " "
          + e.getValue());
    }
    System.out.println("revenue: " + OrderProcessor.formatCents(processor.revenueCents()));

    System.out.println("== units ordered per customer ==");
    Map<String, List<Order>> byCustomer = OrderProcessor.groupBy(orders, Order::customer);
    List<Map.Entry<String, Integer>> totals = new ArrayList<>();
    byCustomer.forEach((customer, list) -> totals.add(
        Map.entry(customer, list.stream().mapToInt(Order::totalUnits).sum())));
    totals.sort(new Comparator<Map.Entry<String, Integer>>() {
      @Override
      public int compare(Map.Entry<String, Integer> a, Map.Entry<String, Integer> b) {
        int byUnits = Integer.compare(b.getValue(), a.getValue());
        return byUnits != 0 ? byUnits : a.getKey().compareTo(b.getKey());
      }
    });
    for (Map.Entry<String, Integer> e : totals) {
      System.out.println(String.format("%-10s %4d", e.getKey(), e.getValue()));
    }

    System.out.println("== stock (" + initialUnits + " -> " + warehouse.totalUnits() + " units) ==");
    System.out.println(warehouse.stockTable());
  }
}
