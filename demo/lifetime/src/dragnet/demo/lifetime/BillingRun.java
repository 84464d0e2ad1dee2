package dragnet.demo.lifetime;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Bills every customer's calls, then settles roaming at month end and audits the archive.
 * The unfixed run holds three planted wastes that `dragnet report` ranks first; the fixed run
 * ({@code fixed}) removes each with one of HUP's transformations and computes the same totals.
 */
final class BillingRun {
  static final int CALLS = 1024; // calls per customer and month
  static final int ZONES = 64; // roaming zones, settled at month end
  static final long HOME_CENTS_PER_MINUTE = 9;

  private final int month;
  private final boolean fixed;
  private final Random random = new Random(2001); // fixed seed: a deterministic month

  // PLANTED lag: the roaming rate card (4 MB) is loaded when the run starts, but first read
  // at month end in settleRoaming(), after every customer's calls were allocated.
  // Fixed: lazy allocation (rateCard()), so it is loaded right before that first read.
  private RateCard rateCard;

  // PLANTED void: December's promotion index (1 MB) is built for every month but read only
  // in December. Fixed: lazy allocation (promotions()); November never builds it.
  private PromotionIndex promotions;

  // PLANTED drag: every customer's call batch stays in the archive for the month-end audit,
  // which reads only its call count; its 8 KB of calls were last read when it was billed.
  // Fixed: assigning null to the dead reference (CallBatch.release()) once billed.
  private final List<CallBatch> archive = new ArrayList<>();

  private final List<Invoice> invoices = new ArrayList<>();
  private final long[] roamingSeconds = new long[ZONES];

  BillingRun(int month, boolean fixed) {
    this.month = month;
    this.fixed = fixed;
    if (!fixed) {
      rateCard = new RateCard();
      promotions = new PromotionIndex();
    }
  }

  private RateCard rateCard() {
    if (rateCard == null) {
      rateCard = new RateCard();
    }
    return rateCard;
  }

  private PromotionIndex promotions() {
    if (promotions == null) {
      promotions = new PromotionIndex();
    }
    return promotions;
  }

  void bill(int customer) {
    CallBatch batch = new CallBatch(customer, CALLS, random);
    // PLANTED void: an itemization per call for the printed bill, written and never read
    // (this run prints no bills). Fixed: dead code removal, no array and no stores.
    long[] itemized = fixed ? null : new long[CALLS];
    long cents = 0;
    for (int i = 0; i < CALLS; i++) {
      int zone = (int) (batch.calls[i] >>> 32);
      long seconds = batch.calls[i] & 0xffffffffL;
      long cost = 0;
      if (zone == 0) {
        cost = (seconds * HOME_CENTS_PER_MINUTE + 59) / 60;
      } else {
        roamingSeconds[zone] += seconds; // billed by the partner networks at month end
      }
      if (!fixed) {
        itemized[i] = cost;
      }
      cents += cost;
    }
    if (month == 12) {
      cents -= promotions().discount(customer, cents);
    }
    invoices.add(new Invoice(customer, cents, itemized));
    if (fixed) {
      batch.release();
    }
    archive.add(batch);
  }

  private long settleRoaming() {
    long cents = 0;
    for (int zone = 1; zone < ZONES; zone++) {
      cents += roamingSeconds[zone] * rateCard().rate(zone * 8191) / 60;
    }
    return cents;
  }

  private long auditedCalls() {
    long calls = 0;
    for (CallBatch b : archive) {
      calls += b.callCount;
    }
    return calls;
  }

  String summary() {
    long home = 0;
    Invoice largest = null;
    for (Invoice i : invoices) {
      home += i.cents;
      if (largest == null || i.cents > largest.cents) {
        largest = i;
      }
    }
    long roaming = settleRoaming();
    StringBuilder s = new StringBuilder();
    s.append("billing run: month ").append(month).append(", ").append(invoices.size())
        .append(" customers\n");
    s.append("home calls:  ").append(euros(home)).append('\n');
    s.append("roaming:     ").append(euros(roaming)).append('\n');
    s.append("audit:       ").append(auditedCalls()).append(" calls\n");
    if (largest != null) {
      s.append("largest:     customer ").append(largest.customer).append(", ")
          .append(euros(largest.cents)).append('\n');
    }
    return s.toString();
  }

  private static String euros(long cents) {
    return String.format("%d.%02d EUR", cents / 100, cents % 100);
  }
}
