package dragnet.demo.copy;

/** One sale as loaded: customer, region, month and amount (cents), from a fixed generator. */
final class SaleRecord {
  final int customer;
  final int region;
  final int month;
  final long amountCents;

  SaleRecord(int customer, int region, int month, long amountCents) {
    this.customer = customer;
    this.region = region;
    this.month = month;
    this.amountCents = amountCents;
  }

  /** {@code customers} x {@code perCustomer} sales, sorted by customer (a 64-bit LCG). */
  static SaleRecord[] generate(int customers, int perCustomer) {
    SaleRecord[] sales = new SaleRecord[customers * perCustomer];
    long seed = 42;
    for (int i = 0; i < sales.length; i++) {
      seed = seed * 6364136223846793005L + 1442695040888963407L;
      int r = (int) (seed >>> 33);
      int region = r % PriceTable.REGIONS;
      int month = (r / PriceTable.REGIONS) % PriceTable.MONTHS;
      long amount = 100 + (r >>> 7) % 100_000;
      sales[i] = new SaleRecord(i / perCustomer, region, month, amount);
    }
    return sales;
  }
}
