package dragnet.demo.copy;

/** Stage 3 of the planted pipeline: the entry again, as a report line. */
final class ReportLine {
  final int customer;
  final int cell;
  final long amountCents;

  ReportLine(LedgerEntry e) {
    customer = e.customer;
    cell = e.cell;
    amountCents = e.amountCents;
  }
}
