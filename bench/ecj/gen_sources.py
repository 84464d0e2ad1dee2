#!/usr/bin/env python3
"""Writes N Java 8 source files (default 320, in 16 packages) for the ecj heap measurement
(docs/PERFORMANCE.md, "Mode alloc"): each class has fields, generic collections,
loops, a switch, lambdas and streams, an anonymous and a nested class, exceptions, and
calls into the class before it, so that compiling them resolves types across files."""
import os
import sys

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 320
per_package = 20

CLASS = '''package gen.p{p};

import java.util.*;
import java.util.function.*;
import java.util.stream.*;

public class C{i} implements Comparable<C{i}> {{
  public interface Visitor<R> {{
    R visit(C{i} node, int depth);
  }}

  public static final class Entry<K extends Comparable<K>, V> {{
    final K key;
    final List<V> values = new ArrayList<>();

    Entry(K key) {{
      this.key = key;
    }}

    int weight() {{
      return key.hashCode() % 17 + values.size();
    }}
  }}

  private final int id;
  private String name;
  private final List<String> tags = new ArrayList<>();
  private final Map<String, Integer> counts = new HashMap<>();
  private final Map<Integer, Entry<String, Double>> entries = new TreeMap<>();
  {prev_field}

  public C{i}(int id, String name) {{
    this.id = id;
    this.name = name == null ? "c{i}" : name;
    for (int k = 0; k < id % 7; k++) tags.add(this.name + "-" + k);
  }}

  public int id() {{
    return id;
  }}

  public String describe(int depth) {{
    StringBuilder b = new StringBuilder();
    b.append("C{i}(").append(id).append(", ").append(name).append(')');
    for (String t : tags) {{
      if (t.length() > depth) b.append(' ').append(t.substring(0, depth));
      else b.append(' ').append(t);
    }}
    return b.toString();
  }}

  public int score(String key) {{
    switch (key) {{
      case "alpha":
        return id * 3;
      case "beta":
        return counts.getOrDefault(key, 0) + 11;
      case "gamma": {{
        int s = 0;
        for (int k = 0; k < id; k++) s += k % 5 == 0 ? k : -1;
        return s;
      }}
      default:
        return key.length() + tags.size();
    }}
  }}

  public Map<Boolean, List<String>> partition(Predicate<String> test) {{
    return tags.stream()
        .filter(Objects::nonNull)
        .map(String::trim)
        .collect(Collectors.partitioningBy(test));
  }}

  public Optional<Entry<String, Double>> best() {{
    return entries.values().stream().max(Comparator.comparingInt(Entry::weight));
  }}

  public void add(String tag, double value) {{
    counts.merge(tag, 1, Integer::sum);
    Entry<String, Double> e = entries.computeIfAbsent(tag.hashCode() & 1023, h -> new Entry<>(tag));
    e.values.add(value);
  }}

  public <R> List<R> walk(Visitor<R> v, int depth) {{
    List<R> out = new ArrayList<>();
    out.add(v.visit(this, depth));
    {prev_walk}
    return out;
  }}

  public Iterator<String> iterator() {{
    return new Iterator<String>() {{
      private int at;

      @Override
      public boolean hasNext() {{
        return at < tags.size();
      }}

      @Override
      public String next() {{
        if (!hasNext()) throw new NoSuchElementException("C{i} at " + at);
        return tags.get(at++);
      }}
    }};
  }}

  public long checksum() {{
    long h = 1125899906842597L;
    try {{
      for (Map.Entry<String, Integer> e : counts.entrySet()) {{
        h = 31 * h + e.getKey().hashCode();
        h ^= e.getValue() << (id % 13);
      }}
      if (h == 42) throw new IllegalStateException("unlikely");
    }} catch (IllegalStateException ex) {{
      h = -h;
    }} finally {{
      h += tags.size();
    }}
    return h;
  }}

  public static int[] histogram(List<? extends C{i}> all, int buckets) {{
    int[] h = new int[buckets];
    for (C{i} c : all) h[Math.floorMod(c.id, buckets)]++;
    return h;
  }}

  @Override
  public int compareTo(C{i} o) {{
    int c = Integer.compare(id, o.id);
    return c != 0 ? c : name.compareTo(o.name);
  }}

  @Override
  public boolean equals(Object o) {{
    return o instanceof C{i} && ((C{i}) o).id == id && ((C{i}) o).name.equals(name);
  }}

  @Override
  public int hashCode() {{
    return Objects.hash(id, name);
  }}
}}
'''

for i in range(count):
    p = i // per_package
    if i > 0:
        pp = (i - 1) // per_package
        prev = f'gen.p{pp}.C{i - 1}'
        prev_field = f'private {prev} previous = new {prev}({i}, "prev");'
        prev_walk = f'out.add(v.visit(this, depth + previous.id() + previous.score("beta")));'
    else:
        prev_field = ''
        prev_walk = ''
    d = os.path.join(out, 'gen', f'p{p}')
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f'C{i}.java'), 'w') as f:
        f.write(CLASS.format(i=i, p=p, prev_field=prev_field, prev_walk=prev_walk))
