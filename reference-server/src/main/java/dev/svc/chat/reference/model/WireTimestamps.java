package dev.svc.chat.reference.model;

import java.time.Instant;

/**
 * Writes an instant in the contract's timestamp form ({@link Json#TIMESTAMP}: {@code uuuu-MM-dd'T'HH:mm:ss.SSS'Z'},
 * UTC, the fraction cut to milliseconds) into a char array, for the years 0000 to 9999: the same characters as the
 * formatter's, without the formatter's objects per call (a BigDecimal for the fraction, a String per field), as
 * every message's frame writes two. Other years are left to the formatter.
 */
final class WireTimestamps {
    /** The length of a timestamp of the years 0000 to 9999. */
    static final int LENGTH = 24;

    private static final long SECONDS_PER_DAY = 86_400;
    /** Days from 0000-03-01 to 1970-01-01, in the proleptic Gregorian calendar. */
    private static final long EPOCH_FROM_MARCH_0000 = 719_468;
    private static final long DAYS_PER_400_YEARS = 146_097;

    private WireTimestamps() {
    }

    /**
     * Writes {@code instant} into {@code into[0..24)} and returns true, or returns false (writing nothing) for a
     * year outside 0000 to 9999.
     */
    static boolean write(Instant instant, char[] into) {
        long seconds = instant.getEpochSecond();
        long days = Math.floorDiv(seconds, SECONDS_PER_DAY);
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        // the civil date of a day count, with years starting on 1 March (the leap day last)
        long shifted = days + EPOCH_FROM_MARCH_0000;
        long era = Math.floorDiv(shifted, DAYS_PER_400_YEARS);
        long dayOfEra = shifted - era * DAYS_PER_400_YEARS;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthFromMarch = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * monthFromMarch + 2) / 5 + 1);
        int month = (int) (monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        if (year < 0 || year > 9999) {
            return false;
        }
        digits(into, 0, (int) year, 4);
        into[4] = '-';
        digits(into, 5, month, 2);
        into[7] = '-';
        digits(into, 8, day, 2);
        into[10] = 'T';
        digits(into, 11, secondOfDay / 3600, 2);
        into[13] = ':';
        digits(into, 14, secondOfDay / 60 % 60, 2);
        into[16] = ':';
        digits(into, 17, secondOfDay % 60, 2);
        into[19] = '.';
        digits(into, 20, instant.getNano() / 1_000_000, 3);
        into[23] = 'Z';
        return true;
    }

    private static void digits(char[] into, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            into[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
