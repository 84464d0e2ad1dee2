package dragnet.demo;

/** Stock levels per region and SKU, kept in a 2D array. */
public final class Warehouse {

  /** Thrown when a reservation cannot be satisfied; no stock is taken in that case. */
  public static final class OutOfStockException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String sku;

    OutOfStockException(String sku, int wanted, int available) {
      super("out of stock: " + sku + " (wanted " + wanted + ", have " + available + ")");
      this.sku = sku;
    }

    public String sku() {
      return sku;
    }
  }

  private final String[] regions;
  private final String[] skus;
  private final long[] priceCents;
  private final int[][] stock; // [region][sku]

  public Warehouse(String[] regions, String[] skus, long[] priceCents) {
    if (skus.length != priceCents.length) {
      throw new IllegalArgumentException("one price per SKU required");
    }
    this.regions = regions.clone();
    this.skus = skus.clone();
    this.priceCents = priceCents.clone();
    this.stock = new int[regions.length][skus.length];
  }

  public void restock(String region, String sku, int quantity) {
    stock[regionIndex(region)][skuIndex(sku)] += quantity;
  }

  public long price(String sku) {
    return priceCents[skuIndex(sku)];
  }

  /** Reserves every line of the order, or nothing at all. */
  public synchronized void reserve(Order order) throws OutOfStockException {
    int r = regionIndex(order.region());
    int[] snapshot = stock[r].clone();
    boolean committed = false;
    try {
      for (Order.Line line : order.lines()) {
        int s = skuIndex(line.sku());
        if (stock[r][s] < line.quantity()) {
          throw new OutOfStockException(line.sku(), line.quantity(), stock[r][s]);
        }
        stock[r][s] -= line.quantity();
      }
      committed = true;
    } finally {
      if (!committed) {
        stock[r] = snapshot; // roll back the partial reservation
      }
    }
  }

  public int totalUnits() {
    int total = 0;
    for (int[] row : stock) {
      for (int units : row) {
        total += units;
      }
    }
    return total;
  }

  public String stockTable() {
    StringBuilder sb = new StringBuilder(String.format("%-8s", "region"));
    for (String sku : skus) {
      sb.append(String.format("%7s", sku));
    }
    for (int r = 0; r < regions.length; r++) {
      sb.append('\n').append(String.format("%-8s", regions[r]));
      for (int s = 0; s < skus.length; s++) {
        sb.append(String.format("%7d", stock[r][s]));
      }
    }
    return sb.toString();
  }

  private int regionIndex(String region) {
    return indexOf(regions, region, "region");
  }

  private int skuIndex(String sku) {
    return indexOf(skus, sku, "SKU");
  }

  private static int indexOf(String[] names, String name, String kind) {
    for (int i = 0; i < names.length; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException("unknown " + kind + ": " + name);
  }
}
