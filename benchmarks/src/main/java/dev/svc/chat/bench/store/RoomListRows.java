package dev.svc.chat.bench.store;

import java.util.List;

import dev.svc.chat.bench.support.Report;

/** The room list's rows of the store section: its cost per message with and without mentions, round by round. */
final class RoomListRows {
  private RoomListRows() {
  }

  static void write(Report report, int rooms, int mentionEvery, List<RoomListCpu> plain,
      List<RoomListCpu> mentioned) {
    report.paragraph("Room list: `RoomListModel` (the SDK's own, driven directly) following " + Report.num(rooms, 0)
        + " rooms, each listed with its receipt; each iteration delivers one new message of a room (rooms in"
        + " turn) and the snapshot that follows goes to a subscribed handler (actor and callbacks on the calling"
        + " thread). CPU time of that thread per iteration (`ThreadMXBean`), "
        + Report.num(plain.get(0).nanos.length, 0) + " iterations a round; " + plain.size()
        + " rounds without mentions and with them in turn (in the second, a message of another member whose seq is"
        + " a multiple of " + mentionEvery + " mentions the user, so every snapshot carries unread mention counts)."
        + " Each figure is the median of the rounds' medians, the spread the lowest and highest round.");
    Report.Table t = report.table("messages", "rooms", "unread mentions in the last snapshot",
        "CPU per message + snapshot, median (µs)", "spread of medians (µs)", "p99 (µs)", "target", "met");
    double plainMedian = row(t, "without mentions", plain, "< 1,000 µs", Double.NaN);
    row(t, "with mentions", mentioned, "≤ 1.2× without", plainMedian);
    t.end();
    report.result("roomlist.cpu.mentions@1000",
        medianOf(mentioned, 50), plainMedian, "µs");
  }

  private static double row(Report.Table t, String name, List<RoomListCpu> rounds, String target, double base) {
    double median = medianOf(rounds, 50);
    double[] medians = each(rounds, 50);
    RoomListCpu last = rounds.get(rounds.size() - 1);
    boolean met = Double.isNaN(base) ? median < 1000 : median <= 1.2 * base;
    String ratio = Double.isNaN(base) ? "" : " (" + Report.ratio(median, base) + ")";
    t.row(name, Report.num(last.roomsInSnapshot, 0), Report.num(last.mentionsInSnapshot, 0),
        Report.num(median, 1) + ratio, Report.num(Report.percentile(medians, 0), 1) + " to "
            + Report.num(Report.percentile(medians, 100), 1),
        Report.num(medianOf(rounds, 99), 1), target, met ? "yes" : "no");
    return median;
  }

  private static double medianOf(List<RoomListCpu> rounds, double p) {
    return Report.median(each(rounds, p));
  }

  private static double[] each(List<RoomListCpu> rounds, double p) {
    double[] v = new double[rounds.size()];
    for (int i = 0; i < v.length; i++) v[i] = rounds.get(i).percentileMicros(p);
    return v;
  }
}
