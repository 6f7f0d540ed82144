package dev.svc.chat.testing;

import dev.svc.chat.transport.TransportSocket;

/** A socket that passes every call to another: a test's transport overrides what it watches or changes. */
public class ForwardingSocket implements TransportSocket {
  protected final TransportSocket delegate;

  public ForwardingSocket(TransportSocket delegate) {
    this.delegate = delegate;
  }

  @Override
  public boolean send(String text) {
    return delegate.send(text);
  }

  @Override
  public long queueSize() {
    return delegate.queueSize();
  }

  @Override
  public boolean close(int code, String reason) {
    return delegate.close(code, reason);
  }

  @Override
  public void cancel() {
    delegate.cancel();
  }
}
