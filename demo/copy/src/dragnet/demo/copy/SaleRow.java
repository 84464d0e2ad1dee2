package dragnet.demo.copy;

/** Stage 1 of the planted pipeline: a sale normalised to a report cell. */
final class SaleRow {
  final int customer;
  final int cell;
  final long amountCents;

  SaleRow(SaleRecord s) {
    customer = s.customer;
    cell = s.region * PriceTable.MONTHS + s.month;
    amountCents = s.amountCents;
  }
}
