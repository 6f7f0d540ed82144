package androidx.lifecycle;

public interface ViewModelStoreOwner {}
