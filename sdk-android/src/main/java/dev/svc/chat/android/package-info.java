/**
 * Android bindings of the chat SDK: {@link dev.svc.chat.android.SvcAndroid}, installed once in
 * {@code Application.onCreate}, stops and starts the session with the app's visibility and reconnects when
 * the network returns; {@link dev.svc.chat.android.MainThreadExecutor} runs callbacks on the main thread.
 */
@NullMarked
package dev.svc.chat.android;

import org.jspecify.annotations.NullMarked;
