package dev.svc.chat.reference.dev;

import dev.svc.chat.reference.files.FileComponents;
import dev.svc.chat.reference.store.Store;
import io.javalin.Javalin;

/**
 * {@code GET /v1/dev/files/{fileId}/thumbnail?size=N}: the thumbnail of any complete image of the key's tenant,
 * for the console's live tail, which holds the API key and no user's session. The answer's headers are the user
 * route's; another tenant's file, an unfinished one and a file that is not an image are 404.
 */
public final class DevFiles {

    private final DevAccess access;
    private final Store store;
    private final FileComponents files;

    /** Creates the route's handler; nothing is served until {@link #install}. */
    public DevFiles(DevAccess access, Store store, FileComponents files) {
        this.access = access;
        this.store = store;
        this.files = files;
    }

    /** Installs the route on {@code app}. */
    public void install(Javalin app) {
        app.get("/v1/dev/files/{fileId}/thumbnail",
                ctx -> files.tenantThumbnail(ctx, DevKey.tenant(access, store, ctx).id()));
    }
}
