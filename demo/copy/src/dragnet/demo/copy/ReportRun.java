package dragnet.demo.copy;

/**
 * The report: net sales per region and month, each sale's amount less the discount of its
 * region and month. {@link #planted} does it with three planted wastes, {@link #fixed}
 * without them; both return the same totals.
 */
final class ReportRun {
  static final int SALES_PER_CUSTOMER = 50;

  private final PriceTable discounts;

  ReportRun(PriceTable discounts) {
    this.discounts = discounts;
  }

  Totals planted(SaleRecord[] sales) {
    // PLANTED (copy chain): every sale is copied through three staging objects, each kept in
    // an array, before its fields are used: SaleRecord -> SaleRow -> LedgerEntry ->
    // ReportLine (customer and amountCents three times, cell twice).
    SaleRow[] rows = new SaleRow[sales.length];
    for (int i = 0; i < sales.length; i++) {
      rows[i] = new SaleRow(sales[i]);
    }
    LedgerEntry[] ledger = new LedgerEntry[rows.length];
    for (int i = 0; i < rows.length; i++) {
      ledger[i] = new LedgerEntry(rows[i]);
    }
    ReportLine[] lines = new ReportLine[ledger.length];
    for (int i = 0; i < ledger.length; i++) {
      lines[i] = new ReportLine(ledger[i]);
    }
    Totals totals = new Totals();
    PriceTable table = null;
    int customer = -1;
    for (ReportLine line : lines) {
      if (line.customer != customer) {
        customer = line.customer;
        totals.customers++;
        // PLANTED (clone): a deep copy of the discount table per customer, only read.
        table = discounts.snapshot();
      }
      int region = line.cell / PriceTable.MONTHS;
      int month = line.cell % PriceTable.MONTHS;
      // PLANTED (NATH): a query object per sale, made only to carry two ints into the call.
      int pct = table.discountFor(new PriceQuery(region, month));
      totals.add(line.cell, line.amountCents, pct);
    }
    return totals;
  }

  Totals fixed(SaleRecord[] sales) {
    Totals totals = new Totals();
    int customer = -1;
    for (SaleRecord s : sales) {
      if (s.customer != customer) {
        customer = s.customer;
        totals.customers++;
      }
      int pct = discounts.discountFor(s.region, s.month);
      totals.add(s.region * PriceTable.MONTHS + s.month, s.amountCents, pct);
    }
    return totals;
  }
}
