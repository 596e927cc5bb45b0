# The comparison: one panel per workload; in each, a group of bars per
# dom0-load setting and a bar per scheduler configuration (the mean of the
# iterations), with the 95 % confidence interval of the mean as error bar.
#
# schedsim --plot writes the variables this body reads before it:
#   datafile                 comparison.dat (columns named in its header)
#   nworkloads, ndom0, nconfigs, iterations
#   workload[], ylabel[], dom0[], config[]   names (arrays, 1-based);
#   nworkloads counts the workloads with a figure, one panel each
#   ymax[]                   per panel, the highest bar or error bar

array colour[8] = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', \
                   '#76b7b2', '#edc948', '#b07aa1', '#9c755f']
bw = 0.8 / nconfigs
# Bar centre: the dom0 group (column 5) shifted by the configuration (column 6).
# Column 4 is the panel: workloads without a figure have none (-1).
xpos(d, c) = d + (c - (nconfigs - 1) / 2.0) * bw
# Is this line of the data file the cell of workload w, configuration c?
cell(w, c) = ($4 == w && $6 == c)

set style fill solid 0.9 border rgb '#333333'
set boxwidth bw * 0.92
set grid ytics lc rgb '#dddddd'
set border 3
set tics nomirror
set xrange [-0.5:ndom0 - 0.5]
set offsets 0, 0, graph 0.08, 0
set key below horizontal samplen 1.5 box

set multiplot layout 1, nworkloads \
    title sprintf('mean of %d iteration%s, error bars: 95 %% confidence interval of the mean', \
                  iterations, iterations == 1 ? '' : 's') font ',9'
do for [w = 0:nworkloads - 1] {
    set title workload[w + 1] font ',12'
    set ylabel ylabel[w + 1]
    # From 0, so bars compare by length; a panel of zeros gets a unit range.
    if (ymax[w + 1] > 0) { set yrange [0:*] } else { set yrange [0:1] }
    set xtics () scale 0
    do for [d = 1:ndom0] {
        set xtics add (dom0[d] d - 1)
    }
    # Lines of other panels and bars are filtered out in x and y both,
    # so that they do not stretch this panel's autoscaled axis.  Error bars
    # are vectors from the low to the high end of the interval (none when
    # the interval is not defined: one iteration).
    plot for [c = 0:nconfigs - 1] datafile \
            using (cell(w, c) ? xpos($5, c) : NaN):(cell(w, c) ? $8 : NaN) \
            with boxes lc rgb colour[c % 8 + 1] title config[c + 1], \
         for [c = 0:nconfigs - 1] datafile \
            using (cell(w, c) ? xpos($5, c) : NaN):(cell(w, c) ? $9 : NaN):(0):($10 - $9) \
            with vectors heads size screen 0.006, 90 lc rgb 'black' lw 1.2 notitle, \
         for [c = 0:nconfigs - 1] datafile \
            using (cell(w, c) ? xpos($5, c) : NaN):(cell(w, c) ? (valid(10) ? $10 : $8) : NaN):(sprintf('%.4g', $8)) \
            with labels offset 0, 0.7 font ',8' notitle
}
unset multiplot
