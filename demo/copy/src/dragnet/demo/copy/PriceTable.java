package dragnet.demo.copy;

/** Discount percentages per region and month. */
final class PriceTable {
  static final int REGIONS = 20;
  static final int MONTHS = 12;

  private final int[][] percent;

  private PriceTable(int[][] percent) {
    this.percent = percent;
  }

  static PriceTable discounts() {
    int[][] p = new int[REGIONS][];
    for (int r = 0; r < REGIONS; r++) {
      p[r] = new int[MONTHS];
      for (int m = 0; m < MONTHS; m++) {
        p[r][m] = (r * 7 + m * 3) % 15;
      }
    }
    return new PriceTable(p);
  }

  /** PLANTED (clone): a defensive deep copy, which its callers only read. */
  PriceTable snapshot() {
    int[][] copy = percent.clone();
    for (int r = 0; r < copy.length; r++) {
      copy[r] = percent[r].clone();
    }
    return new PriceTable(copy);
  }

  /** PLANTED (NATH): the query object only carries two ints into this call. */
  int discountFor(PriceQuery q) {
    return percent[q.region][q.month];
  }

  int discountFor(int region, int month) {
    return percent[region][month];
  }
}
