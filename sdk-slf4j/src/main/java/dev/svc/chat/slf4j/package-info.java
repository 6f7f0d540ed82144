/**
 * {@link dev.svc.chat.slf4j.Slf4jChatLogger}: the SDK's log messages in SLF4J. Every parameter and return value
 * is non-null unless annotated {@link org.jspecify.annotations.Nullable}.
 */
@NullMarked
package dev.svc.chat.slf4j;

import org.jspecify.annotations.NullMarked;
