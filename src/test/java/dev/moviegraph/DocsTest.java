package dev.moviegraph;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * README.md and every docs/**.md: each relative link names a file that exists and, with an anchor into a
 * Markdown file, a heading of that file (GitHub's anchor slugs); a table of contents lists every section
 * of its file, in order. Run from the project root, as Maven runs tests.
 */
class DocsTest {
    private static final Path ROOT = Path.of("");
    private static final Pattern LINK = Pattern.compile("\\[(?:[^\\]\\[]|\\[[^\\]]*])*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");
    private static final Pattern BULLET = Pattern.compile("^\\s*[-*+]\\s");

    @Test
    void everyLinkNamesAFileAndAHeadingThatExist() {
        List<String> broken = new ArrayList<>();
        for (Path doc : documents()) {
            List<Line> lines = prose(doc);
            for (Line line : lines) {
                Matcher link = LINK.matcher(withoutCodeSpans(line.text()));
                while (link.find()) {
                    String problem = problemOf(doc, link.group(1));
                    if (problem != null) {
                        broken.add(doc + ":" + line.number() + ": " + link.group(1) + " (" + problem + ")");
                    }
                }
            }
        }
        assertTrue(broken.isEmpty(), "broken links:\n" + String.join("\n", broken));
    }

    @Test
    void aTableOfContentsListsEverySectionInOrder() {
        List<String> wrong = new ArrayList<>();
        for (Path doc : documents()) {
            List<Line> toc = new ArrayList<>();
            List<String> sections = new ArrayList<>();
            Map<String, Integer> seen = new HashMap<>();
            boolean beforeFirstSection = true;
            List<Line> block = new ArrayList<>();
            for (Line line : prose(doc)) {
                Matcher heading = HEADING.matcher(line.text());
                if (heading.matches()) {
                    String slug = unique(slug(heading.group(2)), seen);
                    if (heading.group(1).length() == 2) {
                        beforeFirstSection = false;
                        sections.add(slug);
                    }
                }
                if (!beforeFirstSection) {
                    continue;
                }
                if (line.text().isBlank() || heading.matches()) {
                    addIfContents(block, toc);
                    block = new ArrayList<>();
                } else if (!block.isEmpty() || BULLET.matcher(line.text()).find()) {
                    block.add(line);
                }
            }
            addIfContents(block, toc);
            if (toc.isEmpty()) {
                continue;
            }
            List<String> listed = new ArrayList<>();
            for (Line line : toc) {
                Matcher link = LINK.matcher(line.text());
                while (link.find()) {
                    if (link.group(1).startsWith("#")) {
                        listed.add(link.group(1).substring(1));
                    }
                }
            }
            int next = 0;
            for (String section : sections) {
                int at = listed.subList(next, listed.size()).indexOf(section);
                if (at < 0) {
                    wrong.add(doc + ":" + toc.get(0).number() + ": the table of contents "
                            + (listed.contains(section) ? "lists #" + section + " out of order" : "misses #" + section));
                } else {
                    next += at + 1;
                }
            }
        }
        assertTrue(wrong.isEmpty(), "tables of contents:\n" + String.join("\n", wrong));
    }

    @Test
    void headingsBecomeGitHubAnchors() {
        assertTrue(slug("What a query costs: receipt, trace, plan").equals("what-a-query-costs-receipt-trace-plan"));
        assertTrue(slug("The month's top list (layout 5)").equals("the-months-top-list-layout-5"));
        assertTrue(slug("Counting streams at scale (`TOTALS=stream`)").equals("counting-streams-at-scale-totalsstream"));
        assertTrue(slug("Single-shape benchmark (`benchmark`)").equals("single-shape-benchmark-benchmark"));
        Map<String, Integer> seen = new HashMap<>();
        assertTrue(unique("earlier-runs", seen).equals("earlier-runs"));
        assertTrue(unique("earlier-runs", seen).equals("earlier-runs-1"));
        assertTrue(unique("earlier-runs", seen).equals("earlier-runs-2"));
        assertFalse(documents().isEmpty());
    }

    /** A list before the first section is a table of contents when one of its items links into its own file. */
    private static void addIfContents(List<Line> list, List<Line> toc) {
        if (list.stream().anyMatch(line -> BULLET.matcher(line.text()).find() && line.text().contains("](#"))) {
            toc.addAll(list);
        }
    }

    /** Why a link is broken, or null when it is not (or is not checked: absolute URLs and mail). */
    private static String problemOf(Path doc, String target) {
        String lower = target.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http:") || lower.startsWith("https:") || lower.startsWith("mailto:")) {
            return null;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path linked = file.isEmpty() ? doc : doc.resolveSibling(file).normalize();
        if (!Files.exists(linked)) {
            return "no file " + linked;
        }
        if (anchor == null || !linked.toString().endsWith(".md")) {
            return null;
        }
        return anchorsOf(linked).contains(anchor) ? null : "no heading #" + anchor + " in " + linked;
    }

    private static List<String> anchorsOf(Path doc) {
        List<String> anchors = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (Line line : prose(doc)) {
            Matcher heading = HEADING.matcher(line.text());
            if (heading.matches()) {
                anchors.add(unique(slug(heading.group(2)), seen));
            }
        }
        return anchors;
    }

    /** GitHub's anchor of a heading: lower case, only letters, digits, spaces, hyphens and underscores, spaces as hyphens. */
    static String slug(String heading) {
        StringBuilder slug = new StringBuilder();
        heading.strip().toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }

    /** The second heading of one slug gets -1, the third -2, as GitHub numbers them. */
    private static String unique(String slug, Map<String, Integer> seen) {
        int before = seen.merge(slug, 1, Integer::sum) - 1;
        return before == 0 ? slug : slug + "-" + before;
    }

    /** Lines outside fenced code blocks, with their numbers. */
    private static List<Line> prose(Path doc) {
        List<String> all;
        try {
            all = Files.readAllLines(doc, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Line> lines = new ArrayList<>();
        String fence = null;
        for (int i = 0; i < all.size(); i++) {
            String text = all.get(i);
            String trimmed = text.stripLeading();
            if (fence == null && (trimmed.startsWith("```") || trimmed.startsWith("~~~"))) {
                fence = trimmed.substring(0, 3);
            } else if (fence != null) {
                if (trimmed.startsWith(fence)) {
                    fence = null;
                }
            } else {
                lines.add(new Line(i + 1, text));
            }
        }
        return lines;
    }

    /** A line with its inline code spans blanked, so `[a](b)` quoted as code is not a link. */
    private static String withoutCodeSpans(String text) {
        return text.replaceAll("`[^`]*`", "``");
    }

    private static List<Path> documents() {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    private record Line(int number, String text) {
    }
}
