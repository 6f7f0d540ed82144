/** The default realtime transport, OkHttp's WebSocket, behind the SPI of {@link dev.svc.chat.transport}. */
package dev.svc.chat.internal.transport;
