package androidx.lifecycle;

public class ViewModelProvider {
  public ViewModelProvider(ViewModelStoreOwner owner) {}
  public <T extends ViewModel> T get(Class<T> modelClass) { return null; }
}
