package androidx.lifecycle;

public interface LifecycleOwner {}
