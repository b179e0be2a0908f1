package dev.moviegraph.catalog;

/**
 * At most how many items a slice of a list holds, as the store knows its lists: a list read whole
 * holds no more than the longest of its kind, a page no more than its size or that longest list.
 */
@FunctionalInterface
public interface ListBounds {
    /** Bounds from the slice alone: a page's size, {@link Slice#ALL_ESTIMATE} for a whole list. */
    ListBounds SLICES = (part, slice) -> slice.mostItems();

    int mostItems(Part part, Slice slice);
}
