/**
 * The Socket.IO v4 (Engine.IO v4, WebSocket only) gateway: connections, heartbeat, packet codec and fan-out.
 */
package dev.svc.chat.reference.gateway;
