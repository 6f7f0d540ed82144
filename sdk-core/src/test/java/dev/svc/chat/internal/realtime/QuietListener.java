package dev.svc.chat.internal.realtime;

import dev.svc.chat.ConnectionStateChange;

/** An engine listener that ignores states and events, for tests of the reader stage; override what a test hears. */
class QuietListener implements EngineListener {
  @Override
  public void onStateChange(ConnectionStateChange change) {
  }

  @Override
  public void onEvent(EventDecoder.Event<?> event) {
  }
}
