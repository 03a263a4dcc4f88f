#!/usr/bin/perl
# sgr-canon.pl: tmux's capture-pane -e output in a canonical form, so that
# two screens that look the same compare the same.  tmux writes an
# attribute change where its grid changes, and the attributes of blank
# cells past the text (which depend on how curses last erased the line)
# decide whether a reset comes at the end of one line or the start of
# the next.  Here every line starts from the default attributes and
# states them in full before each run of text that differs: "\e[0;1;34;46m".
# Trailing blanks are dropped.
use strict;
use warnings;

my %st;

sub reset_state { %st = (attr => {}, fg => '39', bg => '49'); }

# Apply one SGR parameter list to the state.
sub apply {
	my @p = split /;/, ($_[0] eq '' ? '0' : $_[0]);
	while (@p) {
		my $c = shift @p;
		if ($c eq '0' || $c eq '') { reset_state(); }
		elsif ($c =~ /^(1|2|3|4|5|7|8|9)$/) { $st{attr}{$c} = 1; }
		elsif ($c eq '22') { delete @{$st{attr}}{1, 2}; }
		elsif ($c =~ /^2([3-9])$/) { delete $st{attr}{$1}; }
		elsif ($c =~ /^(3[0-7]|9[0-7])$/) { $st{fg} = $c; }
		elsif ($c eq '39') { $st{fg} = '39'; }
		elsif ($c =~ /^(4[0-7]|10[0-7])$/) { $st{bg} = $c; }
		elsif ($c eq '49') { $st{bg} = '49'; }
		elsif ($c eq '38' || $c eq '48') {
			my $kind = shift @p // '';
			my $v = $kind eq '5' ? "$c;5;" . (shift @p // '') :
				$kind eq '2' ? "$c;2;" . join(';', splice(@p, 0, 3)) : "$c;$kind";
			$st{$c eq '38' ? 'fg' : 'bg'} = $v;
		}
	}
}

sub canon {
	return join ';', '0', (sort { $a <=> $b } keys %{$st{attr}}), $st{fg}, $st{bg};
}

reset_state();
my $default = canon();
while (my $line = <STDIN>) {
	chomp $line;
	my ($out, $cur) = ('', $default);
	for my $part (split /(\x1b\[[0-9;]*m)/, $line) {
		if ($part =~ /^\x1b\[([0-9;]*)m$/) {
			apply($1);
			next;
		}
		next if $part eq '';
		my $want = canon();
		if ($want ne $cur) {
			$out .= "\x1b[${want}m";
			$cur = $want;
		}
		$out .= $part;
	}
	$out =~ s/ +$//;
	$out =~ s/(\x1b\[[0-9;]*m)+$//;
	print "$out\n";
}
