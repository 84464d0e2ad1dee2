package dragnet.demo.lifetime;

/**
 * The lifetime demo: a month of telephone billing with planted lag, drag and void (HUP, Pan
 * 2001), each marked PLANTED in BillingRun. With {@code --fixed} it runs the same program
 * after HUP's transformations (section 3.1.1: lazy allocation, assigning null, dead code
 * removal) and prints the same result.
 *
 * <pre>
 * dragnet run --mode lifetime -o life.dragnet -- java -jar lifetime-demo.jar [--fixed] [N]
 * </pre>
 */
public final class Billing {
  private Billing() {}

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
    // The month comes from the data, not a constant: javac must not see that November never
    // needs the December promotions.
    int month = Integer.getInteger("billing.month", 11);
    BillingRun run = new BillingRun(month, fixed);
    for (int c = 0; c < customers; c++) {
      run.bill(c);
    }
    System.out.print(run.summary());
  }
}
