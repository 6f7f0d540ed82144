package dev.svc.chat.bench.support;

import static dev.svc.chat.bench.support.LoopbackScenario.A;
import static dev.svc.chat.bench.support.LoopbackScenario.A_ECHOED;
import static dev.svc.chat.bench.support.LoopbackScenario.A_RELAYED;
import static dev.svc.chat.bench.support.LoopbackScenario.A_SENT;
import static dev.svc.chat.bench.support.LoopbackScenario.B;
import static dev.svc.chat.bench.support.LoopbackScenario.B_ECHOED;
import static dev.svc.chat.bench.support.LoopbackScenario.B_RELAYED;
import static dev.svc.chat.bench.support.LoopbackScenario.B_SENT;
import static dev.svc.chat.bench.support.LoopbackScenario.C;
import static dev.svc.chat.bench.support.LoopbackScenario.C_SENT;
import static dev.svc.chat.bench.support.LoopbackScenario.OFFSET;
import static dev.svc.chat.bench.support.LoopbackScenario.RECEIVER;
import static dev.svc.chat.bench.support.LoopbackScenario.SENDER;
import static dev.svc.chat.bench.support.LoopbackScenario.SERVER;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.svc.chat.bench.support.LoopbackCapture.Stamp;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The capture reader: WebSocket frames out of loopback's TCP segments, and garbage counted, not thrown. */
class LoopbackCaptureTest {
    private static final List<Stamp> EXPECTED = List.of(
            new Stamp(OFFSET + A_SENT, SENDER, SERVER, true, "r1", A),
            new Stamp(OFFSET + A_ECHOED, SERVER, SENDER, false, "r1", A),
            new Stamp(OFFSET + A_RELAYED, SERVER, RECEIVER, false, "r1", A),
            new Stamp(OFFSET + B_SENT, SENDER, SERVER, true, "r1", B),
            new Stamp(OFFSET + C_SENT, SENDER, SERVER, true, "r1", C),
            new Stamp(OFFSET + B_ECHOED, SERVER, SENDER, false, "r1", B),
            new Stamp(OFFSET + B_RELAYED, SERVER, RECEIVER, false, "r1", B));

    private static List<Stamp> read(byte[] pcap, LoopbackCapture.Counts[] counts) throws IOException {
        List<Stamp> stamps = new ArrayList<>();
        counts[0] = LoopbackCapture.read(new ByteArrayInputStream(pcap), stamps::add);
        return stamps;
    }

    @Test
    void eachStampComesWithTheTimeItsFrameWasCompleteAndItsDirection() throws IOException {
        LoopbackCapture.Counts[] counts = new LoopbackCapture.Counts[1];
        List<Stamp> stamps = read(LoopbackScenario.capture(true, ByteOrder.LITTLE_ENDIAN), counts);
        assertEquals(EXPECTED, stamps, "unmasked client frames, B at its second segment, not the cut relay of C");
        assertEquals(new LoopbackCapture.Counts(14, 1, 1, 8, 1, null), counts[0],
                "14 packets: 1 cut short, 1 UDP, 8 frames (with the handshake's), 1 segment without a boundary");
    }

    @Test
    void microsecondsAndBigEndianReadAlike() throws IOException {
        LoopbackCapture.Counts[] counts = new LoopbackCapture.Counts[1];
        assertEquals(EXPECTED, read(LoopbackScenario.capture(false, ByteOrder.BIG_ENDIAN), counts));
    }

    @Test
    void garbageIsCountedNeverThrown() {
        byte[] capture = LoopbackScenario.capture(true, ByteOrder.LITTLE_ENDIAN);
        Random random = new Random(7);
        for (int trial = 0; trial < 2_000; trial++) {
            byte[] damaged = Arrays.copyOf(capture, 24 + random.nextInt(capture.length - 24 + 1));
            for (int flips = random.nextInt(12); flips >= 0; flips--) {
                // mostly the records; now and then the file's header
                int at = damaged.length == 24 || random.nextInt(20) == 0 ? random.nextInt(damaged.length)
                        : 24 + random.nextInt(damaged.length - 24);
                damaged[at] ^= (byte) (1 + random.nextInt(255));
            }
            assertDoesNotThrow(() -> read(damaged, new LoopbackCapture.Counts[1]), "trial " + trial);
        }
        byte[] noise = new byte[50_000];
        random.nextBytes(noise);
        System.arraycopy(capture, 0, noise, 0, 24);
        assertDoesNotThrow(() -> read(noise, new LoopbackCapture.Counts[1]));
    }

    @Test
    void aFileThatIsNoCaptureSaysSo() throws IOException {
        LoopbackCapture.Counts[] counts = new LoopbackCapture.Counts[1];
        assertEquals(List.of(), read("not a capture at all, not at all".getBytes(), counts));
        assertNotNull(counts[0].problem());
        assertEquals(List.of(), read(new byte[3], counts));
        assertNotNull(counts[0].problem());
        read(LoopbackScenario.capture(true, ByteOrder.LITTLE_ENDIAN), counts);
        assertNull(counts[0].problem());
    }
}
