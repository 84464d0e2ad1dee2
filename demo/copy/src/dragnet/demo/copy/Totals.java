package dragnet.demo.copy;

import java.util.Locale;

/** Net sales per report cell (region x month) and the number of customers. */
final class Totals {
  final long[] netCents = new long[PriceTable.REGIONS * PriceTable.MONTHS];
  int customers;

  void add(int cell, long amountCents, int discountPercent) {
    netCents[cell] += amountCents * (100 - discountPercent) / 100;
  }

  String render() {
    StringBuilder out = new StringBuilder();
    long grand = 0;
    for (int r = 0; r < PriceTable.REGIONS; r++) {
      long region = 0;
      for (int m = 0; m < PriceTable.MONTHS; m++) {
        region += netCents[r * PriceTable.MONTHS + m];
      }
      grand += region;
      out.append(String.format(Locale.ROOT, "region %2d  %,16.2f%n", r, region / 100.0));
    }
    out.append(String.format(Locale.ROOT, "total      %,16.2f  (%d customers)%n", grand / 100.0, customers));
    return out.toString();
  }
}
