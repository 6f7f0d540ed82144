/**
 * {@link dev.svc.chat.slf4j.Slf4jChatLogger}: the SDK's log messages in SLF4J. Every parameter and return value
 * is non-null unless annotated {@link dev.svc.chat.Nullable}.
 */
package dev.svc.chat.slf4j;
