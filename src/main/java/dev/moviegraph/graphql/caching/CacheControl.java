package dev.moviegraph.graphql.caching;

import java.time.YearMonth;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import graphql.execution.ResultPath;
import graphql.execution.instrumentation.InstrumentationContext;
import graphql.execution.instrumentation.InstrumentationState;
import graphql.execution.instrumentation.SimplePerformantInstrumentation;
import graphql.execution.instrumentation.parameters.InstrumentationFieldParameters;
import graphql.schema.DataFetchingEnvironment;

/**
 * Works out an executed request's {@link CachePolicy} as Apollo Server's cache control plugin does: each
 * field it resolves starts from its static hint ({@link CacheHints#start}), its fetcher may replace the
 * age (the monthly totals do, by month: {@link #forMonth}), and the answer's policy is the least age and
 * the narrowest scope over every field resolved. Fields under a null parent are never resolved, so they
 * do not count. Only executions that carry a {@link Tally} in their context are followed: planning runs
 * do not.
 */
public final class CacheControl extends SimplePerformantInstrumentation {

    @Override
    public InstrumentationContext<Object> beginFieldExecution(InstrumentationFieldParameters parameters,
                                                              InstrumentationState state) {
        Tally tally = parameters.getExecutionContext().getGraphQLContext().get(Tally.class);
        if (tally != null) {
            CacheHints.Start start = CacheHints.start(parameters.getExecutionStepInfo());
            // a scalar without a hint inherits its parent's age: nothing to keep unless its fetcher sets one
            if (start.maxAge() != null || start.defaultsToZero() || start.priv()) {
                tally.fields.put(parameters.getExecutionStepInfo().getPath(), new Field(start));
            }
        }
        return super.beginFieldExecution(parameters, state);
    }

    /**
     * A fetcher's dynamic hint for monthly totals ending at {@code latest} (null: no end): the finished
     * age when that month is before {@code now}, else the current month's.
     */
    public static void forMonth(DataFetchingEnvironment env, YearMonth latest, YearMonth now) {
        Tally tally = env.getGraphQlContext().get(Tally.class);
        if (tally == null) {
            return;
        }
        boolean finished = latest != null && latest.isBefore(now);
        int maxAge = finished ? tally.settings.finishedMonthSeconds() : tally.settings.currentMonthSeconds();
        tally.fields.computeIfAbsent(env.getExecutionStepInfo().getPath(), path -> new Field(null)).replace(maxAge);
    }

    /**
     * A fetcher's dynamic hint that this field's answer is never to be kept (age 0), whatever its static
     * hint: an abstract field ({@code node}) that resolved to an object of one viewer's, whose type's own
     * hint the field's static start cannot see.
     */
    public static void noStore(DataFetchingEnvironment env) {
        Tally tally = env.getGraphQlContext().get(Tally.class);
        if (tally != null) {
            tally.fields.computeIfAbsent(env.getExecutionStepInfo().getPath(), path -> new Field(null)).replace(0);
        }
    }

    /**
     * A fetcher's dynamic hint that this field's answer is kept no longer, and by no wider a cache, than
     * {@code policy} allows: a router's {@code _entities}, a root field with no static hint of its own,
     * restricted by the hint of each entity type it resolved, as Apollo's subgraph library does. Several
     * calls keep the least.
     */
    public static void atMost(DataFetchingEnvironment env, CachePolicy policy) {
        Tally tally = env.getGraphQlContext().get(Tally.class);
        if (tally != null) {
            tally.fields.computeIfAbsent(env.getExecutionStepInfo().getPath(), path -> new Field(null)).restrict(policy);
        }
    }

    /** The age a monthly total of {@code month} may be kept for, as {@link #forMonth} would set it. */
    public static int monthAge(DataFetchingEnvironment env, YearMonth month, YearMonth now) {
        Tally tally = env.getGraphQlContext().get(Tally.class);
        if (tally == null) {
            return 0;
        }
        return month.isBefore(now) ? tally.settings.finishedMonthSeconds() : tally.settings.currentMonthSeconds();
    }

    /** One request's resolved fields and their policies; lives in its GraphQL context. */
    public static final class Tally {
        private final CacheSettings settings;
        private final Map<ResultPath, Field> fields = new ConcurrentHashMap<>();

        public Tally(CacheSettings settings) {
            this.settings = settings;
        }

        /** The policy of everything resolved: no-store when nothing set an age, capped by the settings. */
        public CachePolicy policy() {
            Integer least = null;
            boolean priv = false;
            for (Field field : fields.values()) {
                Integer age = field.age();
                if (age != null) {
                    least = least == null ? age : Math.min(least, age);
                }
                priv |= field.priv;
            }
            return least == null ? CachePolicy.NO_STORE
                    : new CachePolicy(Math.max(0, least), priv).atMost(settings.maxAgeSeconds());
        }
    }

    /** One resolved field: its static start, and the age its fetcher set, if any. */
    private static final class Field {
        private final CacheHints.Start start;
        private volatile boolean priv;
        private volatile Integer dynamicAge;

        Field(CacheHints.Start start) {
            this.start = start;
            this.priv = start != null && start.priv();
        }

        void replace(int maxAge) {
            dynamicAge = maxAge;
        }

        synchronized void restrict(CachePolicy policy) {
            dynamicAge = dynamicAge == null ? policy.maxAge() : Math.min(dynamicAge, policy.maxAge());
            priv |= policy.priv();
        }

        /** Apollo's end-of-field rule: an age set or hinted, else 0 where the field defaults to it, else none. */
        Integer age() {
            if (dynamicAge != null) {
                return dynamicAge;
            }
            if (start == null) {
                return null;
            }
            return start.maxAge() != null ? start.maxAge() : start.defaultsToZero() ? Integer.valueOf(0) : null;
        }
    }
}
