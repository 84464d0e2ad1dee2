package dragnet.demo.copy;

/** A (region, month) pair passed to PriceTable.discountFor; never stored. */
final class PriceQuery {
  final int region;
  final int month;

  PriceQuery(int region, int month) {
    this.region = region;
    this.month = month;
  }
}
