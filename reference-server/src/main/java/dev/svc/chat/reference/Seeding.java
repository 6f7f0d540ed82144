package dev.svc.chat.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.dev.SnapshotImport;
import dev.svc.chat.reference.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads a seed file ({@code --seed}) at start: a snapshot in the dev API's format whose tenants are loaded
 * idempotently, so the same file on every start of a durable server adds nothing the second time. A tenant
 * the server does not have is created when the file gives its {@code apiKey}; a bad file stops the start with
 * a message that names the problem.
 */
final class Seeding {

    private Seeding() {
    }

    static void load(Path file, Store store, ObjectMapper mapper, TenantProvisioning tenants,
                     SnapshotImport importer) {
        JsonNode root;
        try {
            root = mapper.readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the seed file " + file + ": " + e.getMessage(), e);
        }
        try {
            dev.svc.chat.reference.dev.DevSnapshot.checkFormat(root);
            for (JsonNode tenant : root.get("tenants")) {
                String id = tenant.path("id").asText(ReferenceServer.DEV_TENANT_ID);
                if (store.tenant(id).isEmpty()) {
                    String key = tenant.path("apiKey").asText(null);
                    if (key == null) {
                        throw new IllegalArgumentException("the seed file's tenant " + id
                                + " is not on this server: give its apiKey (sk_...) in the file");
                    }
                    tenants.ensure(TenantConfig.of(id, key));
                }
                importer.load(id, tenant);
            }
        } catch (ApiException e) {
            throw new IllegalArgumentException("the seed file " + file + " is not valid: " + e.getMessage(), e);
        }
    }
}
