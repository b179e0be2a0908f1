package dev.moviegraph.graphql.wiring;

import dev.moviegraph.catalog.CollectionPage;
import dev.moviegraph.catalog.Slice;

import java.util.concurrent.CompletableFuture;

/** A part of a collection that the read of its owner already asked for, with the slice it asked for. */
record Prefetched(Slice slice, CompletableFuture<CollectionPage> page) {
}
