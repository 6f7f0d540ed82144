package dev.svc.chat.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The figures a report prints: a ratio with nothing to divide by is shown as missing, not as a number. */
class ReportTest {
    @Test
    void aRatioIsOursOverThePeersToTwoDecimals() {
        assertEquals("0.50×", Report.ratio(1, 2));
        assertEquals("2.00×", Report.ratio(2, 1));
    }

    @Test
    void aRatioWithoutAPeerFigureIsADash() {
        // A run that received nothing, or a peer that was not measured, must not print "Infinity×" or "NaN×".
        assertEquals("-", Report.ratio(5, 0));
        assertEquals("-", Report.ratio(0, 0));
        assertEquals("-", Report.ratio(Double.NaN, 3));
        assertEquals("-", Report.ratio(3, Double.NaN));
    }
}
