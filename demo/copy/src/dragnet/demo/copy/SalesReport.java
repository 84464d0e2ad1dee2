package dragnet.demo.copy;

/**
 * The copy demo: a sales report over {@code customers} x 50 sales with a planted copy chain,
 * clone and NATH site (each marked PLANTED in ReportRun). With {@code --fixed} it computes the
 * same report without them and prints the same.
 *
 * <pre>
 * dragnet run --mode copy -o copy.dragnet -- java -jar copy-demo.jar [--fixed] [customers]
 * </pre>
 */
public final class SalesReport {
  private SalesReport() {}

  public static void main(String[] args) {
    boolean fixed = false;
    int customers = 2000;
    for (String a : args) {
      if (a.equals("--fixed")) {
        fixed = true;
      } else {
        customers = Integer.parseInt(a);
      }
    }
    SaleRecord[] sales = SaleRecord.generate(customers, ReportRun.SALES_PER_CUSTOMER);
    PriceTable discounts = PriceTable.discounts();
    ReportRun run = new ReportRun(discounts);
    Totals totals = fixed ? run.fixed(sales) : run.planted(sales);
    System.out.print(totals.render());
  }
}
