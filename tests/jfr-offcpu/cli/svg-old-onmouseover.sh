# the oldest flamegraph.pl SVG form, whose frames carry their text in
# onmouseover="s('NAME (N samples, P%)')" and have no <title>
cd "$FIXTURES/svg" && flame-collapse flamegraph-pl-old-onmouseover.svg
