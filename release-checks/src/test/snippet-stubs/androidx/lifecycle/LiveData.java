// Stubs of the AndroidX classes docs/android.md's snippets use, with their real names and signatures: the snippet
// check compiles the SDK's part of those snippets, AndroidX itself is not on its class path.
package androidx.lifecycle;

public class LiveData<T> {
  public T getValue() { return null; }
  public void observe(LifecycleOwner owner, Observer<? super T> observer) {}
}
