package dragnet.demo.lifetime;

/** A customer's bill: the total, and (in the unfixed run) the never-printed itemization. */
final class Invoice {
  final int customer;
  final long cents;
  final long[] itemized; // written, never read: the planted void (null when fixed)

  Invoice(int customer, long cents, long[] itemized) {
    this.customer = customer;
    this.cents = cents;
    this.itemized = itemized;
  }
}
