package dragnet.demo.lifetime;

import java.util.Random;

/** One customer's calls of the month: a roaming zone (0 = at home) and a duration each. */
final class CallBatch {
  final int customer;
  final int callCount;
  // zone << 32 | seconds per call. 8 KB per customer: the planted drag when archived.
  long[] calls;

  CallBatch(int customer, int callCount, Random random) {
    this.customer = customer;
    this.callCount = callCount;
    calls = new long[callCount];
    for (int i = 0; i < callCount; i++) {
      long zone = random.nextInt(16) == 0 ? 1 + random.nextInt(BillingRun.ZONES - 1) : 0;
      calls[i] = zone << 32 | (1 + random.nextInt(1800));
    }
  }

  /** Assigning null (HUP 3.1.1): the durations are dead once invoiced; the batch is not. */
  void release() {
    calls = null;
  }
}
