package dragnet.demo.copy;

/** Stage 2 of the planted pipeline: the row again, as a ledger entry. */
final class LedgerEntry {
  final int customer;
  final int cell;
  final long amountCents;

  LedgerEntry(SaleRow r) {
    customer = r.customer;
    cell = r.cell;
    amountCents = r.amountCents;
  }
}
