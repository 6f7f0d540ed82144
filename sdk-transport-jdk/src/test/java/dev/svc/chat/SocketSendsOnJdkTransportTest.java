package dev.svc.chat;

/** sdk-core's {@link SocketSendsTest} (sends over the socket and their acknowledgements) on the JDK transport. */
class SocketSendsOnJdkTransportTest extends SocketSendsTest {
}
