package androidx.appcompat.app;

public class AppCompatActivity extends android.app.Activity
    implements androidx.lifecycle.LifecycleOwner, androidx.lifecycle.ViewModelStoreOwner {}
