package dev.svc.chat.reference.service;

import dev.svc.chat.reference.auth.Principal;
import dev.svc.chat.reference.contract.ApiException;
import dev.svc.chat.reference.model.Call;
import dev.svc.chat.reference.model.Room;
import dev.svc.chat.reference.store.CallState;
import dev.svc.chat.reference.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Call signaling (contract section 4): one ringing or active call per room, the moves accept, decline and
 * end, and the ringing timeout. Check order: 404 (room or call), then 403 {@code calls_disabled}, then 403
 * membership, then 409 for a move the call's state does not allow. Every change is published as a call event
 * to the room's members while the call's room lock is held, so events of one call arrive in order; each event
 * carries the version of the stored change that made it ({@link CallState#version()}). Calls live
 * in the {@link Store}: a room's one live call is enforced there too.
 */
public final class CallService {

    /** Realtime event of a new ringing call. */
    public static final String CALL_INVITE = "call-invite";
    /** Realtime event of an accept. */
    public static final String CALL_ACCEPTED = "call-accepted";
    /** Realtime event of a decline. */
    public static final String CALL_DECLINED = "call-declined";
    /** Realtime event of a call's end, whatever the reason. */
    public static final String CALL_ENDED = "call-ended";

    private final Store store;
    private final ChatService chat;
    private final Clock clock;
    private final EventPublisher publisher;
    private final Duration ringTimeout;
    private final ScheduledExecutorService timers;
    private final Map<String, Object> roomLocks = new ConcurrentHashMap<>();
    private static final int MAX_ATTEMPTS = 5;

    /**
     * The state of one call while a move is applied to it: what was read, what it becomes, and the events
     * to publish once the store took the change.
     */
    private static final class LiveCall {
        final CallState before;
        Call call;
        final Set<String> declined;
        final List<Object[]> events = new ArrayList<>();

        LiveCall(CallState state) {
            this.before = state;
            this.call = state.call();
            this.declined = new LinkedHashSet<>(state.declinedIds());
        }

        /** The state to store: the one read if nothing changed, else the changes at the call's next version. */
        CallState state() {
            return before.then(call, declined);
        }

        void publish(Room room, String event) {
            events.add(new Object[] {room, event, call});
        }
    }

    /**
     * Creates the service.
     *
     * @param store where calls are kept
     * @param ringTimeout how long a call may ring before it ends as {@code missed}
     * @param timers runs the ringing timeouts (the injected clock is also checked on every access)
     */
    public CallService(Store store, ChatService chat, Clock clock, EventPublisher publisher, Duration ringTimeout,
                       ScheduledExecutorService timers) {
        this.store = store;
        this.chat = chat;
        this.clock = clock;
        this.publisher = publisher;
        this.ringTimeout = ringTimeout;
        this.timers = timers;
    }

    /** Starts a ringing call in a room the principal is a member of; 409 if one is ringing or active. */
    public Call start(Principal principal, String roomId, String kind) {
        String tenantId = principal.tenantId();
        Room room = chat.room(tenantId, roomId);
        requireAllowed(principal, room);
        if (room.memberIds().size() < 2) {
            throw ApiException.conflict("Nobody else in this room to call");
        }
        synchronized (lock(tenantId, roomId)) {
            Optional<CallState> current = liveIn(tenantId, roomId);
            if (current.isPresent()) {
                throw ApiException.conflict("A call is already " + current.get().call().status() + " in this room");
            }
            Call call = new Call(UUID.randomUUID().toString(), roomId, kind, principal.userId(), Call.RINGING,
                    List.of(principal.userId()), now(), null, null);
            if (!store.insertCall(tenantId, new CallState(call, Set.of()))) {
                throw ApiException.conflict("A call is already live in this room");
            }
            publisher.callChanged(tenantId, room, CALL_INVITE, call, 1);
            timers.schedule(() -> expire(tenantId, call.id()), ringTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return call;
        }
    }

    /** Accepts a live call as a member other than its initiator and its participants. */
    public Call accept(Principal principal, String callId) {
        return move(principal, callId, (live, room) -> {
            String user = principal.userId();
            if (user.equals(live.call.initiatorId()) || live.call.participantIds().contains(user)) {
                throw ApiException.conflict("Already in this call");
            }
            List<String> participants = new ArrayList<>(live.call.participantIds());
            participants.add(user);
            live.declined.remove(user);
            live.call = live.call.with(Call.ACTIVE, participants);
            live.publish(room, CALL_ACCEPTED);
        });
    }

    /** Declines a ringing call; when every other member declined, the call ends as {@code declined}. */
    public Call decline(Principal principal, String callId) {
        return move(principal, callId, (live, room) -> {
            String user = principal.userId();
            if (!Call.RINGING.equals(live.call.status())) {
                throw ApiException.conflict("Only a ringing call can be declined");
            }
            if (user.equals(live.call.initiatorId()) || !live.declined.add(user)) {
                throw ApiException.conflict(user.equals(live.call.initiatorId())
                        ? "The caller ends a call instead of declining it" : "Already declined");
            }
            Set<String> others = new HashSet<>(room.memberIds());
            others.remove(live.call.initiatorId());
            boolean everyone = live.declined.containsAll(others);
            if (everyone) {
                live.call = live.call.finished(Call.DECLINED, "declined", now());
            }
            live.publish(room, CALL_DECLINED);
            if (everyone) {
                finish(room, live);
            }
        });
    }

    /**
     * Ends or leaves a live call: the initiator hangs up for everyone ({@code hangup}); another participant
     * leaves, and the call ends ({@code left}) when fewer than two participants remain.
     */
    public Call end(Principal principal, String callId) {
        return move(principal, callId, (live, room) -> {
            String user = principal.userId();
            if (user.equals(live.call.initiatorId())) {
                live.call = live.call.finished(Call.ENDED, "hangup", now());
                finish(room, live);
                return;
            }
            if (!live.call.participantIds().contains(user)) {
                throw ApiException.conflict("Not in this call; decline it instead");
            }
            List<String> participants = new ArrayList<>(live.call.participantIds());
            participants.remove(user);
            live.call = live.call.with(live.call.status(), participants);
            if (participants.size() < 2) {
                live.call = live.call.finished(Call.ENDED, "left", now());
                finish(room, live);
            }
        });
    }

    /** Returns the ringing or active call of a room the principal is a member of, or 404. */
    public Call active(Principal principal, String roomId) {
        Room room = chat.room(principal.tenantId(), roomId);
        requireAllowed(principal, room);
        synchronized (lock(principal.tenantId(), roomId)) {
            return liveIn(principal.tenantId(), roomId).map(CallState::call)
                    .orElseThrow(() -> ApiException.notFound("No active call in this room"));
        }
    }

    private interface Move {
        void apply(LiveCall live, Room room);
    }

    private Call move(Principal principal, String callId, Move move) {
        String tenantId = principal.tenantId();
        CallState stored = store.call(tenantId, callId)
                .orElseThrow(() -> ApiException.notFound("Call not found"));
        String roomId = stored.call().roomId();
        Room room = chat.room(tenantId, roomId);
        requireAllowed(principal, room);
        synchronized (lock(tenantId, roomId)) {
            // Another server may move the call between the read and the write: the store takes the change
            // only from the state it was computed from, else the move is computed again from the new state.
            for (int attempt = 1; ; attempt++) {
                LiveCall found = new LiveCall(store.call(tenantId, callId).orElseThrow());
                expireIfDue(room, found);
                if (!found.call.isLive()) {
                    if (commit(tenantId, found) || attempt >= MAX_ATTEMPTS) {
                        throw ApiException.conflict("The call is " + found.call.status());
                    }
                    continue;
                }
                move.apply(found, room);
                if (commit(tenantId, found)) {
                    return found.call;
                }
                if (attempt >= MAX_ATTEMPTS) {
                    throw ApiException.conflict("The call changed meanwhile; try again");
                }
            }
        }
    }

    /**
     * Stores the call's change if it has one, unless the stored call is no longer the one it was computed
     * from (then returns false and publishes nothing); then publishes its events in order.
     */
    private boolean commit(String tenantId, LiveCall live) {
        CallState next = live.state();
        if (next != live.before && !store.replaceCall(tenantId, live.before, next)) {
            return false;
        }
        for (Object[] e : live.events) {
            publisher.callChanged(tenantId, (Room) e[0], (String) e[1], (Call) e[2], next.version());
        }
        return true;
    }

    private void requireAllowed(Principal principal, Room room) {
        if (!chat.settings(principal.tenantId()).callsEnabled()) {
            throw ApiException.callsDisabled();
        }
        if (!room.hasMember(principal.userId())) {
            throw ApiException.forbidden("Not a member of this room");
        }
    }

    /** Returns the room's live call, ending it first if its ringing time ran out on the injected clock. */
    private Optional<CallState> liveIn(String tenantId, String roomId) {
        for (int attempt = 1; ; attempt++) {
            Optional<CallState> stored = store.liveCall(tenantId, roomId);
            if (stored.isEmpty()) {
                return Optional.empty();
            }
            LiveCall live = new LiveCall(stored.get());
            expireIfDue(chat.room(tenantId, roomId), live);
            if (live.call.isLive()) {
                return Optional.of(live.state());
            }
            if (commit(tenantId, live) || attempt >= MAX_ATTEMPTS) {
                return Optional.empty();
            }
        }
    }

    private void expireIfDue(Room room, LiveCall live) {
        if (Call.RINGING.equals(live.call.status())
                && !now().isBefore(live.call.createdAt().plus(ringTimeout))) {
            missed(room, live);
        }
    }

    /** The real-time timer: a call still ringing when it fires is missed. */
    private void expire(String tenantId, String callId) {
        Optional<CallState> stored = store.call(tenantId, callId);
        if (stored.isEmpty()) {
            return;
        }
        try {
            Room room = chat.room(tenantId, stored.get().call().roomId());
            synchronized (lock(tenantId, room.id())) {
                for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
                    LiveCall live = new LiveCall(store.call(tenantId, callId).orElseThrow());
                    if (!Call.RINGING.equals(live.call.status())) {
                        return;
                    }
                    missed(room, live);
                    if (commit(tenantId, live)) {
                        return;
                    }
                }
            }
        } catch (ApiException roomGone) {
            // Rooms are never deleted today; nothing to tell anyone if one were.
        }
    }

    private void missed(Room room, LiveCall live) {
        live.call = live.call.finished(Call.ENDED, "missed", now());
        finish(room, live);
    }

    private void finish(Room room, LiveCall live) {
        live.publish(room, CALL_ENDED);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private Object lock(String tenantId, String roomId) {
        return roomLocks.computeIfAbsent(key(tenantId, roomId), k -> new Object());
    }

    private static String key(String tenantId, String id) {
        return tenantId + '\u0000' + id;
    }

    /** Throws 404 unless the tenant has the room (the existence check that comes before permission). */
    public void requireRoom(String tenantId, String roomId) {
        store.room(tenantId, roomId).orElseThrow(ChatService::roomNotFound);
    }
}
