package dev.svc.chat.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The rules of the builder's options: what each check lets through, and what it says of what it refuses. */
class OptionChecksTest {

    @Test
    void letsAllowedValuesThrough() {
        Duration second = Duration.ofSeconds(1);
        assertSame(second, OptionChecks.positive(second, "d"));
        assertEquals(1, OptionChecks.atLeastOne(1, "frames"));
        assertEquals(1L, OptionChecks.atLeastOne(1L, "bytes"));
        assertEquals("jdbc:postgresql://h/db", OptionChecks.postgresUrl("jdbc:postgresql://h/db"));
        assertEquals("suite_1", OptionChecks.schema("suite_1"));
        assertEquals("::1", OptionChecks.host("::1"));
        assertEquals(0, OptionChecks.port(0));
        assertEquals(65535, OptionChecks.port(65535));
        assertEquals("sk_12345", OptionChecks.apiKey("sk_12345"));
        OptionChecks.sendRate(0.5, 1);
    }

    @Test
    void saysWhatIsAllowed() {
        refused("d must be positive", () -> OptionChecks.positive(Duration.ZERO, "d"));
        refused("d must be positive", () -> OptionChecks.positive(Duration.ofMillis(-1), "d"));
        refused("frames must be at least 1", () -> OptionChecks.atLeastOne(0, "frames"));
        refused("bytes must be at least 1", () -> OptionChecks.atLeastOne(0L, "bytes"));
        refused("the database URL must start with jdbc:postgresql:", () -> OptionChecks.postgresUrl("jdbc:h2:mem:x"));
        refused("schema must be 1 to 63 of a-z 0-9 _, not starting with a digit", () -> OptionChecks.schema("1a"));
        refused("schema must be 1 to 63 of a-z 0-9 _, not starting with a digit",
                () -> OptionChecks.schema("s".repeat(64)));
        refused("host is blank", () -> OptionChecks.host(" "));
        refused("port must be 0 to 65535: 65536", () -> OptionChecks.port(65536));
        refused("apiKey must start with sk_ and have at least 8 characters", () -> OptionChecks.apiKey("pk_12345"));
        refused("apiKey must start with sk_ and have at least 8 characters", () -> OptionChecks.apiKey("sk_1234"));
        refused("webhookSecret must be whsec_ followed by the base64 of 24 to 64 bytes",
                () -> OptionChecks.webhookSecret("whsec_short"));
        String rate = "perSecond must be positive and finite, burst at least 1";
        refused(rate, () -> OptionChecks.sendRate(0, 1));
        refused(rate, () -> OptionChecks.sendRate(Double.NaN, 1));
        refused(rate, () -> OptionChecks.sendRate(Double.POSITIVE_INFINITY, 1));
        refused(rate, () -> OptionChecks.sendRate(1, 0));
        assertEquals("apiKey", assertThrows(NullPointerException.class, () -> OptionChecks.apiKey(null)).getMessage());
        assertEquals("d",
                assertThrows(NullPointerException.class, () -> OptionChecks.positive(null, "d")).getMessage());
    }

    @Test
    void aTenantIsNewByIdAndByKey() {
        List<TenantConfig> configured = List.of(TenantConfig.of("a", "sk_key_a_1"));
        TenantConfig b = TenantConfig.of("b", "sk_key_b_1");
        assertSame(b, OptionChecks.newTenant(b, configured));
        refused("tenant a is configured twice",
                () -> OptionChecks.newTenant(TenantConfig.of("a", "sk_key_other"), configured));
        refused("tenants a and b have the same API key",
                () -> OptionChecks.newTenant(TenantConfig.of("b", "sk_key_a_1"), configured));
    }

    @Test
    void theOptionsAreCheckedAsAWhole() {
        ServerOptions options = new ServerOptions();
        assertSame(options, OptionChecks.consistent(options));
        options.apiKey = "sk_dev_key";
        options.tenants.add(TenantConfig.of("t", "sk_dev_key"));
        refused("tenant t has the dev tenant's API key", () -> OptionChecks.consistent(options));
        ServerOptions both = new ServerOptions();
        both.dataDir = Path.of("data");
        both.databaseUrl = "jdbc:postgresql://h/db";
        refused("a data directory and a database URL exclude each other", () -> OptionChecks.consistent(both));
    }

    private static void refused(String message, Executable check) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, check).getMessage());
    }
}
