#!/usr/bin/env bash
# The docs are references, their history is git's: README.md, bench/README.md and docs/*.md
# hold no work-log numbering ("Session 12") and no dated entries (a date may only stand next
# to the commit a figure was taken at), and every relative link, including its #heading,
# points at a file and a heading that exist (GitHub's heading slugs); README's example
# blocks use `dragnet shell` and `export` only on a profile the block's own run writes.
# Usage: tests/docs/docs_test.sh [REPO_ROOT]   (default: this checkout)
set -uo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$root" || exit 2
files=(README.md bench/README.md docs/*.md)
for f in "${files[@]}"; do
  [[ -f $f ]] || { echo "docs_test: $root/$f is missing" >&2; exit 2; }
done

perl -CSD -e '
  use strict; use warnings;
  my $bad = 0;
  my %slugs;  # file -> { slug => 1 }
  sub lines_outside_code {  # (line number, text) pairs of a file, fenced code left out
    my ($f) = @_;
    open(my $h, "<:encoding(UTF-8)", $f) or die "$f: $!";
    my ($fence, @out) = (0);
    while (my $l = <$h>) {
      chomp $l;
      if ($l =~ /^\s*(```|~~~)/) { $fence = !$fence; next; }
      push @out, [$., $l] unless $fence;
    }
    return @out;
  }
  sub slugs_of {  # GitHub: lower case, punctuation dropped, spaces to "-", repeats get -N
    my ($f) = @_;
    return $slugs{$f} if $slugs{$f};
    my (%s, %seen);
    for my $p (lines_outside_code($f)) {
      next unless $p->[1] =~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
      my $t = lc $1;
      $t =~ s/[^\p{L}\p{N}\s_-]//g;
      $t =~ s/\s/-/g;
      my $n = $seen{$t}++;
      $s{$n ? "$t-$n" : $t} = 1;
    }
    return $slugs{$f} = \%s;
  }
  sub fail { my ($f, $n, $why, $l) = @_; print "$f:$n: $why: $l\n"; $bad = 1; }
  for my $f (@ARGV) {
    (my $dir = $f) =~ s{[^/]*$}{};
    for my $p (lines_outside_code($f)) {
      my ($n, $l) = @$p;
      fail($f, $n, "work-log numbering", $l) if $l =~ /\bsessions?[ -]?\d/i;
      if ($l =~ /\b20\d\d-[01]\d-[0-3]\d\b/) {
        fail($f, $n, "a dated heading", $l) if $l =~ /^#/;
        fail($f, $n, "a date without the commit it belongs to", $l)
          unless $l =~ /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/;
      }
      while ($l =~ /\[[^\]]*\]\(([^)\s]+)\)/g) {
        my $target = $1;
        next if $target =~ m{^[a-z]+:};
        my ($path, $anchor) = split /#/, $target, 2;
        my $file = $path eq "" ? $f : "$dir$path";
        if (!-e $file) { fail($f, $n, "link to a missing file $file", $target); next; }
        next unless defined $anchor && $file =~ /\.md$/;
        fail($f, $n, "link to a missing heading in $file", $target)
          unless slugs_of($file)->{$anchor};
      }
    }
  }
  exit $bad;
' "${files[@]}"
status=$?

# README's examples: a block's `dragnet shell FILE` and `dragnet export ... FILE` read a
# profile its own `dragnet run -o FILE` wrote (a mode without a shell shows none).
unread=$(awk '/^```/ { if (inblock) { for (f in reads) if (!(f in written))
                         printf "README.md:%d: reads %s, which its block does not write\n", reads[f], f
                         delete reads; delete written }
                       inblock = !inblock; next }
              inblock && /^dragnet run / { for (i = 1; i < NF; i++) if ($i == "-o") written[$(i + 1)] }
              inblock && /^dragnet (shell|export) / { for (i = 3; i <= NF && $i != "#"; i++)
                         if ($i ~ /\.dragnet$/) reads[$i] = NR }' README.md)
if [[ -n $unread ]]; then
  echo "$unread"
  status=1
fi
((status == 0)) && echo "docs_test: ${#files[@]} files checked"
exit $status
