# Wake-to-run latency: the cumulative distribution of the time from a
# vCPU's wake-up to its run, over every vCPU of a domain and every
# iteration, one curve per scheduler configuration; log-scale time axis.
# A point is a histogram bucket's upper edge (within 1/16 of the value),
# so the curves are the ones the p50/p95/p99 of the run reports read.
# Dashes tell apart configurations whose curves lie on each other.
#
# schedsim --plot writes the variables this body reads before it:
#   datafile                 latency-*.dat: panel config latency_us fraction count
#   nconfigs, iterations, rowtitle (workload and dom0 load)
#   panel[2]                 panel titles (benchmark guest, dom0)
#   curve[2 * nconfigs]      curve titles, panel 0's configurations first
#   drawn[2]                 per panel, the configurations with wake-ups ('0 2')
#   xmax_us[2]               per panel, the longest latency (us)

array colour[8] = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', \
                   '#76b7b2', '#edc948', '#b07aa1', '#9c755f']

# The i-th configuration drawn in panel p.
cfg(p, i) = int(word(drawn[p + 1], i))

set logscale x
# A wake-up served at once (0 ns) is drawn at 1 ns: leave room left of it.
# The axis ends at the power of ten above the longest latency, 1 us at least
# (gnuplot's log autoscale trips over curves that are one step at 1 ns).
xend(us) = 10 ** ceil(log10(us > 1 ? us : 1) - 1e-9)
timetics = "set xtics nomirror ('1 ns' 1e-3, '10 ns' 1e-2, '100 ns' 0.1, '1 us' 1, '10 us' 10, " . \
           "'100 us' 100, '1 ms' 1e3, '10 ms' 1e4, '100 ms' 1e5, '1 s' 1e6, '10 s' 1e7)"
eval timetics
set mxtics 10
set ytics 0.1
set yrange [0:1.04]
set grid xtics ytics lc rgb '#dddddd'
set border 3
set tics nomirror
# No x label: the tics carry the units and the title says what is measured.
set ylabel 'fraction of wake-ups at most this long'
set key below box

set multiplot layout 1, 2 title sprintf('wake-to-run latency: %s%s%d iteration%s', \
    rowtitle, rowtitle eq '' ? '' : ', ', iterations, iterations == 1 ? '' : 's') font ',11'
do for [p = 0:1] {
    set title panel[p + 1]
    if (drawn[p + 1] eq '') {
        # No vCPU of the domain woke up (or none ran): an empty panel says so.
        set xrange [5e-4:1e6]
        unset xtics
        unset key
        set label 1 'no wake-ups' at graph 0.5, 0.5 center
        plot NaN notitle
        unset label 1
        set key below box
        eval timetics
        continue
    }
    set xrange [5e-4:xend(xmax_us[p + 1])]
    plot for [i = 1:words(drawn[p + 1])] datafile \
            using (($1 == p && $2 == cfg(p, i)) ? $3 : NaN):4 \
            with steps lw (cfg(p, i) == 0 ? 2.5 : 1.8) dt 1 + cfg(p, i) % 5 \
            lc rgb colour[cfg(p, i) % 8 + 1] title curve[p * nconfigs + cfg(p, i) + 1]
}
unset multiplot
