import java.util.Calendar;
import java.util.GregorianCalendar;

// Sec. 3.6 of the paper: Calendar.before -> compareTo -> getMillisOf clones a calendar whose time
// is not set. ref's time is computed once, so each before() clones cal only: one clone per
// iteration. Expected copy graph: expected/CalendarCase.{ci,cs}.edges.
public class CalendarCase {
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 30000;
    GregorianCalendar ref = new GregorianCalendar(2024, Calendar.JANUARY, 15);
    ref.getTimeInMillis();
    GregorianCalendar cal = new GregorianCalendar(2024, Calendar.JANUARY, 1);
    int before = 0;
    for (int i = 0; i < n; i++) {
      cal.set(Calendar.DAY_OF_MONTH, 1 + i % 28);
      if (cal.before(ref)) {
        before++;
      }
    }
    System.out.println("iterations " + n + ", before " + before);
  }
}
