/**
 * The outbox of {@code sendMessage}: per-room FIFO queues of pending sends, retried with backoff and the same
 * {@code clientMessageId}, optionally written to a directory so that they survive the process. Everything
 * here runs on the client's actor ({@link dev.svc.chat.internal.util.Scheduler}), except where a method says
 * otherwise.
 */
package dev.svc.chat.internal.outbox;
