package dev.svc.chat.internal.util;

/**
 * Which threads that hand a client's actor a task may run it themselves when the actor is idle, instead of waking
 * one of its executor's threads. Running the task where it is saves a hand-off between threads, and that thread's
 * wait for a core; it is allowed only where the caller's thread can afford the task and the app gave no executor
 * that must run the client's work.
 */
public enum CallerRuns {
  /** No caller: every task runs on the executor (the app gave the engine an executor). */
  NONE,
  /** A transport's reader handing over what it read ({@link Scheduler#executeHere}). */
  TRANSPORTS,
  /**
   * Those, and an app's thread that queues a send ({@link Scheduler#executeFromApp}): when the app's callbacks
   * also run on the SDK's threads, so that no thread of an app with a thread of its own (a UI's) runs engine work.
   */
  TRANSPORTS_AND_APP
}
