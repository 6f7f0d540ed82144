package dev.svc.chat.reference.gateway;

/**
 * How this node's fan-out thread is doing, as its watchdog last saw it.
 *
 * @param stalled whether it has had work and finished none for the watchdog's threshold (no socket of the node
 *                gets room events while this holds)
 * @param stalls how many times it stalled since the server started
 * @param failures how many deliveries threw (each logged; the fan-out went on)
 * @param waiting the room events waiting for it now
 */
public record FanOutHealth(boolean stalled, long stalls, long failures, int waiting) {
}
